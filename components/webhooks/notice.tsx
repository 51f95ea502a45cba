import { Card } from "@/components/ui/card";

/** The webhook pages' answer to a user who may not manage them here. */
export function WebhooksNotice({ children }: { children: string }) {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold">Webhooks</h1>
      <Card>
        <p className="text-fg-2">{children}</p>
      </Card>
    </div>
  );
}
