/**
 * `@anvil/aws-customizations`: the AWS SDK service customizations that the
 * protocol compliance tests expect of AWS clients, as opt-in `@anvil/core`
 * request customizations (`withRequestCustomizations`). Register
 * {@link AWS_CUSTOMIZATIONS} (or a chosen few) with a client; each applies
 * only to calls of its service, picked by the `aws.api#service` `sdkId`.
 *
 * @packageDocumentation
 */
import type { RequestCustomization } from "@anvil/core";
import { GLACIER_CUSTOMIZATIONS } from "./glacier.js";
import { machineLearningPredictEndpoint } from "./machine-learning.js";

export { GLACIER_CURRENT_ACCOUNT, GLACIER_CUSTOMIZATIONS, glacierAccountId, glacierChecksums, glacierVersionHeader } from "./glacier.js";
export { machineLearningPredictEndpoint } from "./machine-learning.js";

/** Every customization of this package. */
export const AWS_CUSTOMIZATIONS: readonly RequestCustomization[] = Object.freeze([...GLACIER_CUSTOMIZATIONS, machineLearningPredictEndpoint]);
