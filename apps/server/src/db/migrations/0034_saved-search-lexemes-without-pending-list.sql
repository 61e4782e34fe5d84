-- Decision 037: the index of the searches' lexemes without a pending list (fastupdate off). Every
-- posting's alert job probes it, and a probe reads the whole pending list, up to 4 MB, which only vacuum empties
-- (none runs on PGlite): 23 ms a probe at 100,000 searches, 0.4 ms without.
DROP INDEX "saved_searches_lexemes_idx";--> statement-breakpoint
CREATE INDEX "saved_searches_lexemes_idx" ON "saved_searches" USING gin ("lexemes") WITH (fastupdate=false) WHERE "saved_searches"."lexemes" is not null;
