// The floor for the bundle-size table: jose's compact JWE encryption and nothing of ours.
export { CompactEncrypt } from 'jose'
