// card-fields' root entry, all of it: attachCardFields and every other export with the default
// English words and the card-jwe verdicts they use. Other languages are entries of their own
// (`@card-jwe/card-fields/locales/<tag>`), measured one by one. Built packages.
export * from '@card-jwe/card-fields'
