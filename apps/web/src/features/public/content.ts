import { paths } from "@taskmint/shared/routes";

// The landing page's words. Payout facts follow rule R17: what the withdrawal form offers.

export const SLIDES = [
  {
    id: 1,
    image: "/images/banner-earn.webp",
    title: "Turn Your Time Into Money",
    description: "Complete small online tasks in minutes and earn coins you can withdraw as real money.",
    buttonText: "Start Earning",
    to: paths.register,
  },
  {
    id: 2,
    image: "/images/banner-tasks.webp",
    title: "Simple Tasks, Real Rewards",
    description:
      "Watch, test, review and share: clear instructions, fair reviews, and pay for every approved task.",
    buttonText: "View Tasks",
    to: paths.allTasks,
  },
  {
    id: 3,
    image: "/images/banner-community.webp",
    title: "Join Our Growing Community",
    description: "Over 10,000 users already earn and get work done here. Sign up free in a minute.",
    buttonText: "Register Now",
    to: paths.register,
  },
] as const;

export const FEATURES = [
  { title: "Earn Extra Cash", text: "Every approved task pays coins; 20 coins make a dollar." },
  { title: "Work Online", text: "All you need is a browser and a connection." },
  { title: "Work from Home", text: "No commute, no office: work from your sofa." },
  { title: "Flexible Hours", text: "Pick tasks when it suits you, day or night." },
] as const;

export const HOW_IT_WORKS = [
  "Sign up free as a worker.",
  "Complete a quick set of tasks to learn how they work.",
  "Pick tasks on your computer or your phone.",
  "Read each task's instructions and complete it carefully.",
  "Withdraw your money to Bkash, Rocket, Nagad or PayPal from 200 coins ($10).",
] as const;

export const WHY_US = [
  { title: "Opportunity", text: "Open to anyone: no special skills needed." },
  { title: "Flexibility", text: "Flexible hours, from anywhere." },
  { title: "Motivation", text: "Rewards as your skills grow." },
  { title: "Support", text: "A team that answers when you need help." },
  { title: "Easy Withdrawals", text: "Bkash, Rocket, Nagad or PayPal, from 200 coins ($10)." },
] as const;

export const FAQ = [
  {
    question: "How much does a task pay?",
    answer:
      "Most tasks pay roughly the value of $0.10 to $5 in coins, depending on the effort they take. 20 coins are worth $1.",
  },
  {
    question: "How much can I earn in a month?",
    answer:
      "Dedicated part-time workers earn about $200 to $500 a month. What you earn depends on the tasks you pick and the time you give.",
  },
  {
    question: "How do I withdraw my earnings?",
    answer:
      "From your dashboard, withdraw to Bkash, Rocket, Nagad or PayPal once you have at least 200 coins ($10). Withdrawals are processed in 3 to 5 business days.",
  },
  {
    question: "How is the quality of work checked?",
    answer:
      "The buyer reviews every submission and approves or rejects it with a reason, and random checks keep reviews fair. A submission nobody reviews is approved automatically after 3 days.",
  },
  {
    question: "Are there bonuses for good work?",
    answer: "Yes. Workers whose work is consistently approved get bonuses and priority on new tasks.",
  },
  {
    question: "Can I work from anywhere?",
    answer:
      "Yes, from any country with an internet connection. A few tasks are only for workers in certain countries; their details say so.",
  },
] as const;

export const TESTIMONIALS = [
  {
    id: 1,
    name: "Nusrat Jahan",
    role: "Worker",
    image: "/images/avatar-1.webp",
    quote: "I do a few tasks every evening and withdraw to Bkash every month. It adds up.",
  },
  {
    id: 2,
    name: "Daniel Okafor",
    role: "Buyer",
    image: "/images/avatar-2.webp",
    quote: "I got 200 app reviews tested in two days, and paid only for the ones I approved.",
  },
  {
    id: 3,
    name: "Rafi Ahmed",
    role: "Worker",
    image: "/images/avatar-3.webp",
    quote: "Clear instructions and fair reviews. When a task was rejected, I was told exactly why.",
  },
  {
    id: 4,
    name: "Maria Santos",
    role: "Buyer",
    image: "/images/avatar-4.webp",
    quote: "The escrow gives me peace of mind: unused coins come back the moment I close a task.",
  },
  {
    id: 5,
    name: "Tanvir Hossain",
    role: "Worker",
    image: "/images/avatar-5.webp",
    quote: "Flexible hours around my studies, and payouts that arrive on time.",
  },
] as const;
