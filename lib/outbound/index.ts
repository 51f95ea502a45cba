// The one way the application makes HTTP requests to addresses users or partners choose (D24).
export { isPublicAddress } from "./address";
export { checkOutboundUrl } from "./check-url";
export { USER_AGENT } from "./connect";
export { OutboundError, isOutboundError, type OutboundFailure } from "./errors";
export { outboundPolicyFromEnv, type OutboundPolicy, type ResolvedAddress } from "./policy";
export { DEFAULT_MAX_RESPONSE_BYTES, outboundRequest, type OutboundHeaders, type OutboundRequestInput, type OutboundResponse } from "./request";
export { outboundStream, type OutboundStreamInput, type OutboundStreamResponse } from "./stream";
export { outboundUpload, type OutboundUploadInput } from "./upload";
