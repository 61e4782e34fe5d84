/** How much bigger the generated suites run: 1 in `npm test`, more in `npm run test:soak`. */
export const SOAK_SCALE = Math.max(1, Number(process.env.SOAK_SCALE ?? 1) || 1);
