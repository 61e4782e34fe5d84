/**
 * Data the server embeds in a page it renders (issue 16): the All Tasks page carries the public
 * list's first page as JSON in `<script type="application/json" id={FIRST_PAGE_DATA_ID}>`, so
 * the app starts with it instead of asking for it again.
 */
export const FIRST_PAGE_DATA_ID = "first-tasks-page";

/** What may not appear raw in a script element's text, nor in a JavaScript string (U+2028/9). */
const UNSAFE_IN_SCRIPT = /[<>&\u2028\u2029]/g;

/**
 * JSON text made safe inside a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 become
 * `\uXXXX` escapes, so no `</script>` or `<!--` in a string (a task's title is anyone's text) can
 * end or change the element. Outside strings JSON has none of these characters, so the text
 * parses to the same value.
 */
export const jsonForScript = (json: string) =>
  json.replace(UNSAFE_IN_SCRIPT, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
