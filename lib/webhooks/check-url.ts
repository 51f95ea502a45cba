import { AppError } from "@/lib/errors";
import { checkOutboundUrl, isOutboundError, type OutboundPolicy } from "@/lib/outbound";

/**
 * A webhook URL as create, update and test sends accept it (D19, D24): https and only public
 * addresses (unless OUTBOUND_ALLOW_PRIVATE). Refused: 400 naming the reason; nothing is connected
 * to. The URL is stored as given (not normalised), so it reads back as it was sent.
 */
export async function checkWebhookUrl(url: string, policy?: OutboundPolicy): Promise<void> {
  try {
    await checkOutboundUrl(url, policy);
  } catch (e) {
    if (isOutboundError(e)) throw new AppError("invalid_request", `url: ${e.reason}: ${e.message}`, {}, { field: "url", userMessage: e.message });
    throw e;
  }
}
