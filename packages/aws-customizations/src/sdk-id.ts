/**
 * Which AWS service a service schema is: the `sdkId` of its `aws.api#service`
 * trait, as AWS SDKs key their customizations.
 *
 * @internal
 */
import type { ServiceSchema } from "@anvil/core";

/** The `aws.api#service` trait id. */
const AWS_SERVICE = "aws.api#service";

/** The service's `aws.api#service` `sdkId`, or undefined when it has none. */
export function sdkIdOf(service: ServiceSchema): string | undefined {
  const trait = service.traits[AWS_SERVICE];
  if (typeof trait !== "object" || trait === null) return undefined;
  const sdkId = (trait as { sdkId?: unknown }).sdkId;
  return typeof sdkId === "string" ? sdkId : undefined;
}
