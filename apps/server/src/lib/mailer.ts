import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Database } from "../db/client.ts";
import type { Env } from "../env.ts";
import { enqueueJobs, type JobHandler } from "./job-queue.ts";

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
    // A silent SMTP server must not hold a job for nodemailer's default minutes (the job's lease is 5).
    const transport = nodemailer.createTransport({
      url: env.SMTP_URL,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
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

/** The job that sends one mail (decision 034). */
export const MAIL_JOB = "mail";
/** The waits after each failed attempt: about 4 hours of an SMTP outage is outlasted. */
const MAIL_RETRY_MS = [1, 5, 30, 120, 120].map((minutes) => minutes * 60_000);

/** Queues a mail in `db` (the transaction of the change it tells of, when there is one). */
export function queueMail(db: Database, mail: Mail, now: Date) {
  return enqueueJobs(db, [{ kind: MAIL_JOB, payload: mail, now }]);
}

/** Sends a queued mail; an SMTP error retries it. */
export function mailJob(sendMail: SendMail): JobHandler {
  return { run: async (payload) => sendMail(payload as Mail), retryAfterMs: MAIL_RETRY_MS };
}
