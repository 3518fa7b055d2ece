export {
  createOutboundFetch,
  type OutboundFetchOptions,
  type OutboundRequest,
  outboundSenderOf,
  providerFetchFor,
  type SendOutbound,
} from './fetch';
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
