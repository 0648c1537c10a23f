#!/usr/bin/perl
# JWE peer on Crypt::JWT (Debian libcrypt-jwt-perl), for card-jwe interop tests.
#   decrypt KEY_PEM           < compact JWE -> JSON {header, payload}
#   encrypt CERT_PEM ALG ENC  < payload     -> compact JWE
use strict;
use warnings;
use Crypt::JWT qw(decode_jwt encode_jwt);
use Crypt::PK::RSA;
use JSON::PP;

my ($mode, $key_path, $alg, $enc) = @ARGV;
local $/;
my $input = <STDIN>;
$input =~ s/\s+$//;
my $key = Crypt::PK::RSA->new($key_path);

if ($mode eq 'decrypt') {
  my ($header, $payload) = decode_jwt(
    token => $input, key => $key, decode_header => 1, decode_payload => 0,
    accepted_alg => 'RSA-OAEP-256', accepted_enc => 'A256GCM',
  );
  print JSON::PP->new->canonical->encode({ header => $header, payload => JSON::PP->new->decode($payload) }), "\n";
} else {
  print encode_jwt(payload => $input, alg => $alg, enc => $enc, key => $key, extra_headers => { version => '1' }), "\n";
}
