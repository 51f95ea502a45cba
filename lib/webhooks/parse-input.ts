// Webhooks parse their input like every other domain caller outside the API wrapper.
export { parseInput as parseWebhookInput } from "@/lib/parse-input";
