// The one invite codec of the product (docs/invites.md); the web app and the broker import it from here.
export {
  INVITE_BROKER_URL_MAX_LENGTH,
  INVITE_FIELDS,
  INVITE_GRANTABLE_ROLES,
  INVITE_SIGNED_FIELDS,
  INVITE_TOKEN_MAX_LENGTH,
  INVITE_VERSION,
  ZInvitePayload,
  ZUnsignedInvitePayload,
  formatInviteExpiry,
  type TInvitePayload,
  type TInviteRole,
  type TUnsignedInvitePayload,
} from "./invite-schema";
export {
  canonicalInviteBytes,
  canonicalInviteString,
  createInviteToken,
  decodeInviteToken,
  encodeInviteToken,
  signInvite,
  type DecodeInviteResult,
} from "./invite-codec";
export {
  verifyInviteToken,
  type VerifyInviteFailure,
  type VerifyInviteOptions,
  type VerifyInviteResult,
} from "./verify-invite";
export { generateOwnerKeyPair, generateRootKey, ownerKeyPairFromSeed } from "./invite-keys";
export { generateInviteCode, INVITE_CODE_LENGTH, INVITE_CODE_PATTERN, normaliseInviteCode } from "./short-code";
