import { Card } from "@/components/ui/card";

export default function InvitationNotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <title>Invitation not found · Client Portals</title>
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Client Portals</h1>
      <Card title="Invitation not found">
        <p>This invitation link is not valid. Check that you opened the whole link from the email, or ask for a new invitation.</p>
      </Card>
    </main>
  );
}
