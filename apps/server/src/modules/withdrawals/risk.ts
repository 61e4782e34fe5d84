import { sql } from "drizzle-orm";
import { coinCount, type RiskLevel, type WithdrawalRisk } from "@taskmint/shared";
import type { Database } from "../../db/client.ts";
import { rowsOf } from "../../lib/db-errors.ts";
import { walletOf } from "../ledger/service.ts";

// Fraud signals on a pending withdrawal (issue 19, decision 017). Coins bought at $0.035 and
// withdrawn at $0.05 make one person with a buyer and a worker account a profit machine: the
// signals look for that pattern in stored facts only (the ledger, payments, sign-up origins, the
// device cookies accounts signed in with, and the public addresses and browsers the server saw
// them sign in from, which clearing cookies does not erase: issue 31), and an admin reads the reasons.

/** Thresholds of the signals, in one place. */
export const RISK_RULES = {
  /** An account younger than this is new. */
  youngAccountDays: 7,
  /** A buyer who paid at least this share of the worker's earnings is their main source. */
  concentratedShare: 0.8,
  /** Only earnings of at least this many coins say anything about their sources. */
  concentrationMinimumCoins: 100,
  /** Coins the main buyer bought this shortly before the withdrawal went straight through. */
  fastHours: 72,
  /** This many accounts signed up from one address is a farm. */
  accountsPerAddress: 3,
} as const;

/** What the signals are computed from, for one withdrawal. */
export interface RiskFacts {
  accountAgeDays: number;
  totalEarned: number;
  /** The buyers who paid the worker (approved work and bonuses), most coins first. */
  payers: {
    name: string;
    coins: number;
    sharesSignUpAddress: boolean;
    /** Both signed in from one public address, at any time. */
    sharesSignInAddress: boolean;
    /** Both signed in from one public address with the same browser (User-Agent). */
    sharesBrowserAtAddress: boolean;
    sharesDevice: boolean;
    /** Hours from the buyer's last completed purchase before the request to the request, or null. */
    hoursFromPurchase: number | null;
    boughtCoins: number;
  }[];
  accountsFromSignUpAddress: number;
}

/** The level and reasons the facts add up to: any link to a paying buyer is high; each other signal adds one. */
export function assessRisk(facts: RiskFacts): WithdrawalRisk {
  const high: string[] = [];
  const medium: string[] = [];
  for (const payer of facts.payers) {
    const paid = `${payer.name}, who paid them ${coinCount(payer.coins)}`;
    if (payer.sharesSignUpAddress) high.push(`Signed up from the same address as buyer ${paid}`);
    if (payer.sharesBrowserAtAddress)
      high.push(`Signed in from the same address with the same browser as buyer ${paid}`);
    // A shared sign-up address is a shared sign-in address too: said once.
    else if (payer.sharesSignInAddress && !payer.sharesSignUpAddress)
      high.push(`Signed in from the same address as buyer ${paid}`);
    if (payer.sharesDevice) high.push(`Signed in on the same device as buyer ${paid}`);
  }
  const main = facts.payers[0];
  if (main && facts.totalEarned >= RISK_RULES.concentrationMinimumCoins) {
    const share = main.coins / facts.totalEarned;
    if (share >= RISK_RULES.concentratedShare) {
      medium.push(
        `${Math.floor(share * 100)}% of their earnings (${main.coins} of ${coinCount(facts.totalEarned)}) came from one buyer, ${main.name}`,
      );
      if (main.hoursFromPurchase !== null && main.hoursFromPurchase <= RISK_RULES.fastHours) {
        medium.push(
          `${main.name} bought ${coinCount(main.boughtCoins)} ${hoursText(main.hoursFromPurchase)} before this request`,
        );
      }
    }
  }
  if (facts.accountAgeDays < RISK_RULES.youngAccountDays) {
    medium.push(
      `The account is ${facts.accountAgeDays === 0 ? "less than a day" : daysText(facts.accountAgeDays)} old`,
    );
  }
  if (facts.accountsFromSignUpAddress >= RISK_RULES.accountsPerAddress) {
    medium.push(`${facts.accountsFromSignUpAddress} accounts signed up from their sign-up address`);
  }
  const level: RiskLevel =
    high.length > 0 || medium.length >= 3 ? "high" : medium.length > 0 ? "medium" : "low";
  return { level, reasons: [...high, ...medium] };
}

const daysText = (days: number) => `${days} ${days === 1 ? "day" : "days"}`;
const hoursText = (hours: number) => (hours < 1 ? "less than an hour" : `${Math.floor(hours)} h`);

/** Reads the facts of one pending withdrawal from the database. */
export async function riskFacts(
  db: Database,
  withdrawal: { workerId: string; createdAt: Date },
): Promise<RiskFacts> {
  const { workerId, createdAt } = withdrawal;
  const [worker] = rowsOf<{ age_days: number; accounts_from_address: number }>(
    await db.execute(sql`
      select floor(extract(epoch from (${createdAt}::timestamptz - u.created_at)) / 86400)::int as age_days,
             (select count(*)::int from sign_up_origins other
              where other.ip = origin.ip and public_address(origin.ip)) as accounts_from_address
      from users u left join sign_up_origins origin on origin.user_id = u.id
      where u.id = ${workerId}`),
  );
  // Earnings by buyer: approvals of the worker's submissions and bonuses, as credited to the wallet.
  const payers = rowsOf<{
    name: string;
    coins: string | number;
    shares_address: boolean;
    shares_sign_in_address: boolean;
    shares_browser: boolean;
    shares_device: boolean;
    last_purchase_at: string | Date | null;
    bought: string | number;
  }>(
    await db.execute(sql`
      with wallet as (select id from ledger_accounts where owner_key = ${walletOf(workerId)}),
      credits as (
        select t.idempotency_key as key, t.amount from ledger_transfers t, wallet
        where t.to_account_id = wallet.id and t.created_at <= ${createdAt}::timestamptz
          and (t.idempotency_key like 'approve:%' or t.idempotency_key like 'bonus:%')
      ), by_buyer as (
        select coalesce(s.buyer_id, b.buyer_id) as buyer_id, sum(c.amount) as coins
        from credits c
        left join submissions s on c.key like 'approve:%' and s.id = substr(c.key, length('approve:') + 1)
        left join bonuses b on c.key like 'bonus:%' and b.id = substr(c.key, length('bonus:') + 1)
        group by 1
      )
      select u.name, p.coins,
             exists (select 1 from sign_up_origins mine join sign_up_origins theirs on theirs.ip = mine.ip
                     where mine.user_id = ${workerId} and theirs.user_id = p.buyer_id
                       and public_address(mine.ip)) as shares_address,
             exists (select 1 from user_sightings mine join user_sightings theirs on theirs.ip = mine.ip
                     where mine.user_id = ${workerId} and theirs.user_id = p.buyer_id
                       and public_address(mine.ip)) as shares_sign_in_address,
             exists (select 1 from user_sightings mine join user_sightings theirs
                       on theirs.ip = mine.ip and theirs.user_agent = mine.user_agent
                     where mine.user_id = ${workerId} and theirs.user_id = p.buyer_id
                       and public_address(mine.ip)) as shares_browser,
             exists (select 1 from user_sightings mine join user_sightings theirs on theirs.device_id = mine.device_id
                     where mine.user_id = ${workerId} and theirs.user_id = p.buyer_id) as shares_device,
             (select max(completed_at) from payments where buyer_id = p.buyer_id and status = 'completed'
                and completed_at <= ${createdAt}::timestamptz) as last_purchase_at,
             (select coalesce(sum(coins), 0) from payments where buyer_id = p.buyer_id and status = 'completed') as bought
      from by_buyer p join users u on u.id = p.buyer_id
      where p.buyer_id is not null
      order by p.coins desc, u.id`),
  );
  const totalEarned = payers.reduce((sum, payer) => sum + Number(payer.coins), 0);
  return {
    accountAgeDays: worker?.age_days ?? 0,
    accountsFromSignUpAddress: worker?.accounts_from_address ?? 0,
    totalEarned,
    payers: payers.map((payer) => ({
      name: payer.name,
      coins: Number(payer.coins),
      sharesSignUpAddress: payer.shares_address,
      sharesSignInAddress: payer.shares_sign_in_address,
      sharesBrowserAtAddress: payer.shares_browser,
      sharesDevice: payer.shares_device,
      boughtCoins: Number(payer.bought),
      hoursFromPurchase:
        payer.last_purchase_at === null
          ? null
          : (createdAt.getTime() - new Date(payer.last_purchase_at).getTime()) / 3_600_000,
    })),
  };
}

/** The risk of one pending withdrawal. */
export async function withdrawalRisk(
  db: Database,
  withdrawal: { workerId: string; createdAt: Date },
): Promise<WithdrawalRisk> {
  return assessRisk(await riskFacts(db, withdrawal));
}
