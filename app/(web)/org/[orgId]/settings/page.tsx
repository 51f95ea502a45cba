import { redirect } from "next/navigation";

export default async function SettingsIndex({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  redirect(`/org/${orgId}/settings/profile`);
}
