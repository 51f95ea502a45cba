import { NotFoundMessage } from "@/components/not-found-message";

// Inside an organization: rendered within its layout, so the header and navigation stay.
export default function OrgNotFound() {
  return <NotFoundMessage className="py-16" linkLabel="Go to your portals" />;
}
