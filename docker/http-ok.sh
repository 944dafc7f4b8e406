#!/bin/bash
# seckill-http-ok PORT PATH: succeeds when http://127.0.0.1:PORT/PATH answers 200; the containers' health check.
# The JRE and OpenResty images ship neither curl nor wget, but each has bash, and bash's /dev/tcp is enough for one
# HTTP/1.1 request on loopback. Only the status line is read, so neither a large body nor a slow close can hold the
# probe; compose's health check timeout bounds a peer that accepts and never answers.
set -u
[ $# -eq 2 ] || { echo "usage: seckill-http-ok PORT PATH" >&2; exit 2; }
exec 3<> "/dev/tcp/127.0.0.1/$1" || exit 1
printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$2" >&3
IFS= read -r -t 5 status <&3 || exit 1
[[ $status == HTTP/1.[01]' 200 '* ]]
