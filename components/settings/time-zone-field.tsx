import { Input } from "@/components/ui/input";
import { timeZoneNames } from "@/lib/time/zones";

/** A time zone input: type to search the IANA names (a native list), or pick one. */
export function TimeZoneField({ id, name, label, value, hint }: { id: string; name: string; label: string; value: string; hint: string }) {
  const names = timeZoneNames();
  const listId = `${id}-zones`;
  return (
    <>
      <Input id={id} name={name} label={label} defaultValue={value} list={listId} required autoComplete="off" spellCheck={false} hint={hint} />
      <datalist id={listId}>
        {(names.includes(value) ? names : [value, ...names]).map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}
