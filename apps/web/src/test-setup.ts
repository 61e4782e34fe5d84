import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// Each test renders into an empty document (Testing Library unmounts on its own only with globals).
afterEach(cleanup);
