/**
 * The root key of every query about tasks, submissions, appeals, blocks and hidden buyers: they
 * change together (a decision moves a submission, a slot and an appeal at once), so a change to
 * any of them invalidates this root. Shared by the tasks and trust features.
 */
export const workQueriesRoot = ["tasks"] as const;
