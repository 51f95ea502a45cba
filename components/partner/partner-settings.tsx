"use client";

import { CheckCircle2, PlugZap, Unplug } from "lucide-react";
import { useActionState, useState } from "react";
import type { FormAction, PartnerActionState, PartnerFormState } from "@/components/partner/state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** The connect form: API address and key, "Test connection" (nothing saved) and "Connect". */
export function PartnerConnectForm({
  test,
  connect,
  defaultApiUrl,
  connected,
}: {
  test: FormAction<PartnerFormState>;
  connect: FormAction<PartnerFormState>;
  defaultApiUrl: string;
  connected: boolean;
}) {
  const [tested, testAction, testing] = useActionState(test, {});
  const [saved, connectAction, saving] = useActionState(connect, {});
  // The answer of the button pressed last is the one shown.
  const [last, setLast] = useState<"test" | "connect">("connect");
  const state = last === "test" ? tested : saved;
  // Controlled, so that neither the form's reset after each submission nor a re-render loses what
  // was typed: Test connection, then Connect, without typing the key again.
  const [apiUrl, setApiUrl] = useState(defaultApiUrl);
  const [apiKey, setApiKey] = useState("");
  // Once connected the key is not kept in the page (React's "adjust state on a change" pattern).
  const [connectedAt, setConnectedAt] = useState(saved.saved);
  if (saved.saved !== connectedAt) {
    setConnectedAt(saved.saved);
    setApiKey("");
  }

  return (
    <form action={connectAction} className="space-y-4">
      {state.error ? <Alert>{state.error}</Alert> : null}
      {last === "test" && tested.tested && !testing ? <Alert tone="success">The partner accepted these credentials. Connect to start using them.</Alert> : null}
      {last === "connect" && saved.saved && !saving ? <Alert tone="success">Connected. Portals with a partner id are being verified.</Alert> : null}
      <Input
        label="Partner API address"
        id="partner-api-url"
        name="apiUrl"
        type="url"
        maxLength={2000}
        placeholder="https://partner.example/api"
        value={apiUrl}
        onChange={(e) => setApiUrl(e.target.value)}
        error={state.fieldErrors?.apiUrl}
      />
      <Input
        label="API key"
        id="partner-api-key"
        name="apiKey"
        type="password"
        autoComplete="off"
        required
        maxLength={500}
        value={apiKey}
        onChange={(e) => setApiKey(e.target.value)}
        error={state.fieldErrors?.apiKey}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" formAction={testAction} onClick={() => setLast("test")} variant="secondary" disabled={testing || saving}>
          <CheckCircle2 aria-hidden className="mr-2 h-4 w-4" />
          {testing ? "Testing…" : "Test connection"}
        </Button>
        <Button type="submit" onClick={() => setLast("connect")} disabled={testing || saving}>
          <PlugZap aria-hidden className="mr-2 h-4 w-4" />
          {saving ? "Connecting…" : connected ? "Save and reconnect" : "Connect"}
        </Button>
      </div>
    </form>
  );
}

export function PartnerDisconnectForm({ disconnect }: { disconnect: FormAction<PartnerActionState> }) {
  const [state, action, pending] = useActionState(disconnect, {});
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!window.confirm("Disconnect the partner? Nothing is sent to the partner until you connect again.")) e.preventDefault();
      }}
      className="space-y-2"
    >
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Button type="submit" variant="danger" disabled={pending}>
        <Unplug aria-hidden className="mr-2 h-4 w-4" />
        {pending ? "Disconnecting…" : "Disconnect"}
      </Button>
    </form>
  );
}
