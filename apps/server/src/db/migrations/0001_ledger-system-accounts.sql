-- The ledger's two system accounts: where coins enter and where withdrawn coins leave (M2).
INSERT INTO "ledger_accounts" ("kind", "owner_key") VALUES ('mint', 'mint'), ('payout', 'payout');
