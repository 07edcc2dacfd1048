#!/usr/bin/env bash
# The document tests read the generated PDFs with Debian's poppler-utils (pdftotext, pdfinfo) and validate the
# generated XML with libxml2's xmllint (libxml2-utils): whichever is missing is installed (apt-get).
set -euo pipefail
missing=()
if ! command -v pdftotext >/dev/null || ! command -v pdfinfo >/dev/null; then missing+=(poppler-utils); fi
if ! command -v xmllint >/dev/null; then missing+=(libxml2-utils); fi
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
echo "installing Debian ${missing[*]} for the document tests (apt-get)"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
