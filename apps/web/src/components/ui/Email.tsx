/**
 * An email address that never breaks mid-word: a line may end only before the "@" or a dot
 * (`worker` / `@taskmint.local`); a part too long even for that is clipped, the whole address
 * in its title.
 */
export function Email({ address, className = "" }: { address: string; className?: string }) {
  const at = address.lastIndexOf("@");
  const [local, domain] = at > 0 ? [address.slice(0, at), address.slice(at)] : [address, ""];
  const domainParts = domain.split(/(?=\.)/);
  return (
    <span className={`inline-block max-w-full overflow-hidden align-bottom ${className}`} title={address}>
      <span className="whitespace-nowrap">{local}</span>
      {domainParts.map((part, index) => (
        <span key={index}>
          <wbr />
          <span className="whitespace-nowrap">{part}</span>
        </span>
      ))}
    </span>
  );
}
