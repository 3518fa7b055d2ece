export { createOutboundFetch, type OutboundFetchOptions, providerFetchFor } from './fetch';
export {
  BlockedAddressError,
  isAllowedAddress,
  isPublicAddress,
  NO_PRIVATE_HOSTS,
  type OutboundPolicy,
  outboundPolicy,
  policyOf,
  vetUrl,
  vetUrlResolved,
} from './policy';
export { type SafeFetchOptions, type SafeFetchResult, safeFetch } from './safe-fetch';
