import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Env } from "../env.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  headers?: Record<string, string>;
}

export type SendMail = (mail: Mail) => Promise<void>;

/**
 * Sends through SMTP_URL when it is set; otherwise writes each mail to the log and to
 * a dev outbox folder (DATA_DIR/outbox), so password reset works out of the box.
 */
export function createMailer(env: Env, log: FastifyBaseLogger): SendMail {
  if (env.SMTP_URL) {
    const transport = nodemailer.createTransport(env.SMTP_URL);
    return async (mail) => {
      await transport.sendMail({ from: env.MAIL_FROM, ...mail });
    };
  }
  const outbox = path.join(env.DATA_DIR, "outbox");
  return async (mail) => {
    log.info(
      { to: mail.to, subject: mail.subject, text: mail.text },
      "mail (no SMTP_URL set: kept in the dev outbox)",
    );
    await mkdir(outbox, { recursive: true });
    const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.to}.txt`);
    const headers = Object.entries(mail.headers ?? {}).map(([name, value]) => `${name}: ${value}\n`);
    await writeFile(file, `To: ${mail.to}\nSubject: ${mail.subject}\n${headers.join("")}\n${mail.text}\n`);
  };
}
