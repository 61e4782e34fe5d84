/**
 * The API description's opening text (issue 35 point 6): how to authenticate and a quick start,
 * in Markdown, which /api/docs renders above the operations. The operations a key may call are
 * listed from their declarations, so the text cannot drift from what the server enforces.
 */
import {
  API_KEY_REQUESTS_PER_MINUTE,
  IDEMPOTENCY_KEY_HEADER,
  MAX_API_KEYS_PER_BUYER,
  WEBHOOK_RETRY_HOURS,
  paths as pages,
} from "@taskmint/shared";

const fence = (language: string, code: string) => `\`\`\`${language}\n${code.trim()}\n\`\`\``;

const curlPostTask = (origin: string) =>
  fence(
    "sh",
    `
curl ${origin}/api/tasks \\
  -H "Authorization: Bearer $TASKMINT_KEY" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -F task_title="Rate 5 logos" \\
  -F task_detail="Look at each logo and rate it from 1 to 5." \\
  -F submission_info="Your five ratings, in order" \\
  -F required_workers=10 \\
  -F payable_amount=3 \\
  -F category=data_entry \\
  -F completion_date=2030-01-31
`,
  );

const verifyWebhook = fence(
  "js",
  `
// npm install standardwebhooks
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.TASKMINT_WEBHOOK_SECRET); // whsec_...

createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    try {
      // Checks webhook-signature against the raw body, and refuses an old webhook-timestamp.
      const event = webhook.verify(body, request.headers);
      console.log(event.type, event.data);
      response.writeHead(204).end();
    } catch {
      response.writeHead(400).end();
    }
  });
}).listen(8080);
`,
);

/**
 * The document's description: authentication, then the quick start. `keyOperations` are the
 * operations an API key may call, as "METHOD /path" with their operation ids.
 */
export function apiGuide(publicUrl: string, keyOperations: readonly (readonly [string, string])[]) {
  const origin = new URL(publicUrl).origin;
  const developerPage = new URL(pages.dashboard.developer, publicUrl).href;
  const keyList = keyOperations
    .map(([operation, operationId]) => `  - \`${operation}\` (${operationId})`)
    .join("\n");
  return `The HTTP contract of the TaskMint marketplace. Answers are JSON; an error is \`{"error": {"code", "message", "details"}}\`.

## Authentication

- **In the browser**: signing in sets a session cookie (\`sessionCookie\` below); every operation that needs a signed-in user takes it. A write from a browser must come from this site (its Origin is checked).
- **From a program**: a buyer's API key, sent as \`Authorization: Bearer tm_...\` (\`apiKey\` below). Create and revoke keys on the [Developer page](${developerPage}), at most ${MAX_API_KEYS_PER_BUYER} at a time; a key is shown once, when it is made. A key acts as its buyer, spending the buyer's coins, on these operations only; everywhere else it is refused with 403, and a revoked or malformed key is 401:
${keyList}
- **Rate limit**: ${API_KEY_REQUESTS_PER_MINUTE} requests a minute per key; the next answers 429 \`RATE_LIMITED\` with a \`Retry-After\` header (seconds).
- **Retrying safely**: every POST a key can make takes an \`Idempotency-Key\` header (any unique text, a UUID say; the operations list it as \`${IDEMPOTENCY_KEY_HEADER}\`). The same key with the same request answers the first answer again instead of acting twice, for 24 hours; the same key with another request is 409 \`IDEMPOTENCY_MISMATCH\`. Send one whenever a retry could post tasks or move coins twice.

## Quick start

1. **Create a key**: sign in as a buyer, open the [Developer page](${developerPage}), name a key (say "Nightly import") and copy it from the dialog; it is not shown again. Keep it in an environment variable, \`TASKMINT_KEY\`.
2. **Post a task** with curl (\`multipart/form-data\`; it costs \`required_workers\` × \`payable_amount\` coins, taken from your balance into escrow; a program need not send an image, the task then shows its category's picture):

${curlPostTask(origin)}

   A 201 answers the task. Run it again with the same \`Idempotency-Key\` and you get the same task back, not a second one.
3. **Hear of submissions**: on the Developer page add a webhook endpoint (your https URL and its events) and keep its signing secret (\`whsec_...\`). Each event is a \`POST\` of \`{type, timestamp, data}\` signed by the [Standard Webhooks](https://www.standardwebhooks.com/) rules; answer 2xx, or the delivery is retried for ${WEBHOOK_RETRY_HOURS} hours with the same \`webhook-id\` (use it to ignore repeats). Verify each one in Node with the \`standardwebhooks\` package:

${verifyWebhook}

A typed TypeScript client generated from this document, with an example that posts a batch, is in the repository's \`packages/buyer-client\`.
`;
}
