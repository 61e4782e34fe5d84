import { paths } from "@taskmint/shared/routes";

// The landing page's words. Every claim here is something the product does as built (rules
// R17, R19): payout facts are what the withdrawal form offers, guarantees are what the
// server enforces. No invented numbers, people or quotes.

export const SLIDES = [
  {
    id: 1,
    title: "Turn your time into money",
    description:
      "Complete small online tasks and earn coins. From 200 coins, withdraw them as money: 20 coins make $1.",
    buttonText: "Start earning",
    to: `${paths.register}?role=worker`,
  },
  {
    id: 2,
    title: "Simple tasks, real rewards",
    description:
      "Every task says what to do and what proof to send. Approved work is paid from coins the buyer set aside in advance.",
    buttonText: "View tasks",
    to: paths.allTasks,
  },
  {
    id: 3,
    title: "Join our growing community",
    description: "Sign up free in a minute: workers start with 10 coins, buyers with 50.",
    buttonText: "Register now",
    to: paths.register,
  },
] as const;

export const FEATURES = [
  { title: "Earn extra cash", text: "Every approved task pays coins; 20 coins make a dollar." },
  { title: "Work online", text: "All you need is a browser and a connection." },
  { title: "Work from home", text: "No commute, no office: work from your sofa." },
  { title: "Flexible hours", text: "Pick tasks when it suits you, day or night." },
] as const;

export const HOW_IT_WORKS = [
  "Sign up free as a worker: you start with 10 coins.",
  "Browse the open tasks on your computer or your phone and pick one.",
  "Read its instructions carefully, do the work and submit your proof.",
  "The buyer approves it and the task's coins are yours. Work left unreviewed for 3 days is approved automatically.",
  "Withdraw your money to Bkash, Rocket, Nagad or PayPal from 200 coins ($10).",
] as const;

export const WHY_US = [
  { title: "Opportunity", text: "Open to anyone: sign-up is free and needs no experience." },
  { title: "Flexibility", text: "Work when you like, wherever you have a connection." },
  {
    title: "Guaranteed pay",
    text: "A task's coins are set aside when it is posted, so approved work is always paid.",
  },
  { title: "Clear decisions", text: "A rejection always comes with the buyer's reason." },
  { title: "Easy withdrawals", text: "Bkash, Rocket, Nagad or PayPal, from 200 coins ($10)." },
] as const;

export const FAQ = [
  {
    question: "How much does a task pay?",
    answer:
      "Each buyer sets the pay per worker, in coins, and you see it before you start. 20 coins are worth $1.",
  },
  {
    question: "How much can I earn in a month?",
    answer:
      "There is no fixed amount: it depends on the tasks buyers post and the time you give. Your dashboard shows your total earnings.",
  },
  {
    question: "How do I withdraw my earnings?",
    answer:
      "From your dashboard, withdraw to Bkash, Rocket, Nagad or PayPal once you have at least 200 coins ($10). The coins are held while an admin reviews the request; if it is rejected, they come back to your balance with the reason.",
  },
  {
    question: "How is the quality of work checked?",
    answer:
      "The buyer reviews every submission and approves it, or rejects it with a reason you can read. A submission nobody reviews is approved automatically after 3 days.",
  },
  {
    question: "Is the pay for a task guaranteed?",
    answer:
      "Yes. When a buyer posts a task, the pay for all its workers is set aside from their balance. Approved work is paid from it, so a buyer cannot run out of coins before paying you.",
  },
  {
    question: "Can I work from anywhere?",
    answer:
      "Yes: everything happens in your browser. To withdraw, you need a Bkash, Rocket or Nagad mobile account (Bangladesh) or a PayPal account.",
  },
] as const;

/** What the server enforces, for workers and buyers (in place of invented testimonials). */
export const GUARANTEES = [
  {
    title: "Coins set aside up front",
    text: "Posting a task moves its full pay into escrow. Approved work is paid from there, never from a promise.",
  },
  {
    title: "No endless waiting",
    text: "A submission the buyer has not reviewed within 3 days is approved and paid automatically.",
  },
  {
    title: "A reason for every rejection",
    text: "A buyer cannot reject work without saying why, and the worker sees the reason.",
  },
  {
    title: "Pay only for approved work",
    text: "A rejected submission frees its slot or returns its coins, and a deleted or expired task returns the coins of its open slots.",
  },
  {
    title: "Withdrawals held, not lost",
    text: "A withdrawal request holds its coins while an admin reviews it; a rejected request returns them to your balance.",
  },
  {
    title: "Card payments checked",
    text: "Bought coins are credited once, only after the payment has been verified with the card provider.",
  },
] as const;
