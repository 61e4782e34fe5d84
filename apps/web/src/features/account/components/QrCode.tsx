import { encode } from "uqr";

/** A QR code of `text` as SVG, one square per module, dark on white whatever the theme (scanners need the contrast). */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data } = encode(text, { border: 2 });
  const size = data.length;
  const squares = data.flatMap((row, y) =>
    row.map((dark, x) => (dark ? `M${x} ${y}h1v1h-1z` : "")).filter(Boolean),
  );
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      className="size-48 rounded bg-white"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={squares.join("")} fill="#000" />
    </svg>
  );
}
