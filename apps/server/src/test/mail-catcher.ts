import { afterAll, beforeAll } from "vitest";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  /** Header names in lower case. */
  headers: Map<string, string>;
}

/**
 * A real SMTP server on this machine, so a mail leaves the app exactly as it would in
 * production: point the app's SMTP_URL at `url`.
 */
export async function startMailCatcher() {
  const inbox: ReceivedMail[] = [];
  /** While set, every mail is held until it settles: a slow mail provider. */
  let holding: Promise<void> | null = null;
  /** While set, every mail is refused with this SMTP error: a provider that is down. */
  let refusing: string | null = null;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      const held = holding ?? Promise.resolve();
      const refusal = refusing;
      simpleParser(stream)
        .then(async (mail) => {
          await held;
          if (refusal) throw Object.assign(new Error(refusal), { responseCode: 451 });
          const to = Array.isArray(mail.to) ? mail.to[0]?.text : mail.to?.text;
          const headers = new Map(
            [...mail.headerLines].map(({ key, line }) => [key, line.slice(line.indexOf(":") + 1).trim()]),
          );
          inbox.push({ to: to ?? "", subject: mail.subject ?? "", text: mail.text ?? "", headers });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as { port: number };

  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    hold(until: Promise<void> | null) {
      holding = until;
    },
    refuse(reason: string | null) {
      refusing = reason;
    },
    /** The mails to `to` whose subject contains `subject`. */
    mailsTo(to: string, subject = "") {
      return inbox.filter((mail) => mail.to.includes(to) && mail.subject.includes(subject));
    },
    /** The first mail to `to` whose subject contains `subject`, waiting up to 5 s for it. */
    async waitFor(to: string, subject = ""): Promise<ReceivedMail> {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const mail = this.mailsTo(to, subject)[0];
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no mail to ${to} about "${subject}"`);
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

export type MailCatcher = Awaited<ReturnType<typeof startMailCatcher>>;

/**
 * A mail catcher for the enclosing file: started in its beforeAll (before the hooks declared
 * after this call, so an app started after it can send to it), closed in its afterAll.
 */
export function mailCatcherPerFile(): MailCatcher {
  let started: MailCatcher | undefined;
  beforeAll(async () => {
    started = await startMailCatcher();
  });
  afterAll(() => started?.close());
  return new Proxy({} as MailCatcher, {
    get(_, name) {
      if (!started) throw new Error("the mail catcher starts in beforeAll: read it inside a hook or a test");
      return Reflect.get(started, name) as unknown;
    },
  });
}
