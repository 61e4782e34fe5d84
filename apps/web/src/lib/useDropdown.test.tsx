import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { useDropdown } from "./useDropdown.ts";

function Menu({ onOpen }: { onOpen: () => void }) {
  const { open, box, triggerProps } = useDropdown({ onOpen });
  return (
    <div>
      <div ref={box}>
        <button {...triggerProps}>Menu</button>
        {open && <a href="#item">Item</a>}
      </div>
      <p>Outside</p>
    </div>
  );
}

describe("useDropdown", () => {
  it("opens and closes from its trigger, telling each opening once", () => {
    const onOpen = vi.fn();
    render(<Menu onOpen={onOpen} />);
    const trigger = screen.getByRole("button", { name: "Menu" });
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    fireEvent.click(trigger);
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByText("Item")).toBeTruthy();
    fireEvent.click(trigger);
    expect(screen.queryByText("Item")).toBeNull();
    expect(onOpen).toHaveBeenCalledTimes(1);
  });

  it("stays open for a press inside, and closes for one outside", () => {
    render(<Menu onOpen={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Menu" }));
    fireEvent.mouseDown(screen.getByText("Item"));
    expect(screen.getByText("Item")).toBeTruthy();
    fireEvent.mouseDown(screen.getByText("Outside"));
    expect(screen.queryByText("Item")).toBeNull();
  });

  it("closes on Escape and gives the focus back to its trigger", () => {
    render(<Menu onOpen={() => undefined} />);
    const trigger = screen.getByRole("button", { name: "Menu" });
    fireEvent.click(trigger);
    screen.getByText("Item").focus();
    act(() => {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    });
    expect(screen.queryByText("Item")).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it("ignores other keys", () => {
    render(<Menu onOpen={() => undefined} />);
    fireEvent.click(screen.getByRole("button", { name: "Menu" }));
    act(() => {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    });
    expect(screen.getByText("Item")).toBeTruthy();
  });
});
