#!/usr/bin/env bash
# The document tests read the generated PDFs with Debian's poppler-utils (pdftotext, pdfinfo).
set -euo pipefail
if command -v pdftotext >/dev/null && command -v pdfinfo >/dev/null; then exit 0; fi
echo "installing Debian poppler-utils for the document tests (apt-get)"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq poppler-utils >/dev/null
