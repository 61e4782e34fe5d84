-- Live notification streams end with their session (issue 14). Every path that ends a
-- session deletes its row (sign-out, password reset, account deletion, cleanup), and a
-- change of role or a deletion changes the user; announcing both here covers each path,
-- present and future, and reaches every server process (SESSION_END_CHANNEL in the
-- notifications module). Announced on commit, like any NOTIFY.
CREATE FUNCTION announce_session_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ends', 'session:' || OLD.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_announce_end AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION announce_session_end();
--> statement-breakpoint
CREATE FUNCTION announce_user_access_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ends', 'user:' || NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER users_announce_access_change AFTER UPDATE OF role, deleted_at ON users FOR EACH ROW
WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
EXECUTE FUNCTION announce_user_access_change();
