/** The protocol trait id this package implements. */
export const GRPC_PROTOCOL_ID = "alloy.proto#grpc";
