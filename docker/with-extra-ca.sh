#!/bin/sh
# with-extra-ca.sh CMD...: runs CMD (a step of docker/Dockerfile's build stage that reaches Maven Central over HTTPS)
# trusting, besides Debian's certificate authorities, those of the build secret extra_ca (PEM; empty: none), e.g. a
# proxy that inspects TLS. curl (the Maven wrapper's download) and Maven's JVM get copies of the trust stores in a
# directory removed when CMD ends, so the certificates land in no layer.
set -eu
extra=/run/secrets/extra_ca
if [ ! -s "$extra" ]; then exec "$@"; fi
trust=$(mktemp -d)
trap 'rm -rf "$trust"' EXIT
cat /etc/ssl/certs/ca-certificates.crt "$extra" > "$trust/bundle.pem"
cp /etc/ssl/certs/java/cacerts "$trust/cacerts"
awk -v dir="$trust" '/BEGIN CERTIFICATE/ { n++ } n { print > (dir "/extra-" n ".pem") }' "$extra"
for cert in "$trust"/extra-*.pem; do
  keytool -importcert -noprompt -keystore "$trust/cacerts" -storepass changeit -alias "${cert##*/}" -file "$cert" > /dev/null
done
CURL_CA_BUNDLE="$trust/bundle.pem" MAVEN_OPTS="-Djavax.net.ssl.trustStore=$trust/cacerts ${MAVEN_OPTS:-}" "$@"
