import { notFound } from "next/navigation";

// Any other path inside an organization: its not-found, inside the layout (header and navigation).
export default function UnknownOrgPath(): never {
  notFound();
}
