/** An ILIKE pattern matching texts that contain `text` as typed: its %, _ and \ match only themselves. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;
