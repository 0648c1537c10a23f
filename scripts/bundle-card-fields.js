// What a shop's card form ships from card-fields: attachCardFields with its English words, and the
// card-jwe verdicts it uses (other languages are imported only where used). Built packages.
export { attachCardFields } from '@card-jwe/card-fields'
