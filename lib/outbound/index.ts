// The one way the application makes HTTP requests to addresses users or partners choose (D24).
export { checkOutboundUrl } from "./check-url";
export { isOutboundError } from "./errors";
export { type OutboundPolicy, type ResolvedAddress } from "./policy";
export { outboundRequest, type OutboundResponse } from "./request";
export { outboundStream } from "./stream";
export { outboundUpload } from "./upload";
export { inWaves } from "./waves";
