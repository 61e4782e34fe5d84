import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Notice, NoticeGroup } from "./Notice.tsx";

afterEach(() => sessionStorage.clear());

function Page({ second = true, layoutNotice = false }: { second?: boolean; layoutNotice?: boolean }) {
  return (
    <NoticeGroup>
      {layoutNotice && (
        <Notice id="layout" icon={null} title="Shown on every page" later>
          <p>The layout's notice.</p>
        </Notice>
      )}
      <Notice id="first" icon={null} title="Confirm your email address" dismissible>
        <p>Open the link we sent.</p>
      </Notice>
      <div>
        {second && (
          <Notice id="second" icon={null} title="Turn on two-factor sign-in" dismissible>
            <p>Admins need it.</p>
          </Notice>
        )}
      </div>
    </NoticeGroup>
  );
}

const hiddenOnPhones = (id: string) => screen.getByTestId(id).classList.contains("max-sm:hidden");

describe("a page's notices on phones", () => {
  it("collapse into the first one's line, whose +1 shows the others", () => {
    render(<Page />);
    expect(hiddenOnPhones("first")).toBe(false);
    expect(hiddenOnPhones("second")).toBe(true);
    const more = screen.getByRole("button", { name: "Show 1 more notice" });
    fireEvent.click(more);
    expect(hiddenOnPhones("second")).toBe(false);
    expect(more.getAttribute("aria-expanded")).toBe("true");
    fireEvent.click(screen.getByRole("button", { name: "Show one notice" }));
    expect(hiddenOnPhones("second")).toBe(true);
  });

  it("give the line to the next notice when the first is dismissed, and count nothing for one alone", () => {
    render(<Page />);
    fireEvent.click(screen.getAllByRole("button", { name: "Dismiss this notice" })[0]!);
    expect(screen.queryByTestId("first")).toBeNull();
    expect(hiddenOnPhones("second")).toBe(false);
    expect(screen.queryByRole("button", { name: /more notice/ })).toBeNull();
  });

  it("give the line to the page's own notices before one shown on every page", () => {
    render(<Page layoutNotice />);
    expect(hiddenOnPhones("first")).toBe(false);
    expect(hiddenOnPhones("second")).toBe(true);
    expect(hiddenOnPhones("layout")).toBe(true);
    expect(screen.getByRole("button", { name: "Show 2 more notices" })).toBeTruthy();
  });

  it("leave a section's notice further down out of the page's line", () => {
    render(
      <NoticeGroup>
        <Notice id="layout" icon={null} title="Shown on every page" later />
        <Notice id="section" icon={null} title="A section's notice" grouped={false} />
      </NoticeGroup>,
    );
    expect(hiddenOnPhones("layout")).toBe(false);
    expect(hiddenOnPhones("section")).toBe(false);
    expect(screen.queryByRole("button", { name: /more notice/ })).toBeNull();
  });

  it("show a lone notice without a count", () => {
    render(<Page second={false} />);
    expect(hiddenOnPhones("first")).toBe(false);
    expect(screen.queryByRole("button", { name: /more notice/ })).toBeNull();
  });
});
