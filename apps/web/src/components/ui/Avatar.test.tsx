import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Avatar, initials } from "./Avatar.tsx";

describe("initials", () => {
  it.each([
    ["Ann Lee", "AL"],
    ["Ann Marie Lee", "AL"],
    ["  rita   newcomer ", "RN"],
    ["Wendy", "W"],
    ["Émile Zola", "ÉZ"],
    ["", "?"],
  ])("%j -> %j", (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe("Avatar", () => {
  it("shows the photo when there is one", () => {
    const { container } = render(<Avatar photo="/uploads/x.webp" name="Ann Lee" />);
    expect(container.querySelector("img")?.getAttribute("src")).toBe("/uploads/x.webp");
  });

  it("shows the initials under a photo, and in its place when it fails to load", () => {
    const { container } = render(<Avatar photo="/uploads/missing.webp" name="Ann Lee" />);
    expect(screen.getByTestId("avatar-initials").textContent).toBe("AL");
    const photo = container.querySelector("img");
    if (!photo) throw new Error("no photo");
    fireEvent.error(photo);
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByTestId("avatar-initials").textContent).toBe("AL");
  });

  it("shows the initials without a photo (rule R29)", () => {
    render(<Avatar photo={null} name="Ann Lee" />);
    expect(screen.getByTestId("avatar-initials").textContent).toBe("AL");
  });
});
