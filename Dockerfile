# syntax=docker/dockerfile:1
# The promoengine image: a static binary in an empty (scratch) root with CA
# certificates and a non-root user, nothing else (no shell, no libc).
#   docker build -t promoengine --build-arg VERSION=0.1.0 \
#     --build-arg COMMIT=$(git rev-parse HEAD) \
#     --build-arg DATE=$(TZ=UTC git log -1 --format=%cd --date=format-local:%Y-%m-%dT%H:%M:%SZ) .
# CI cannot pull base images here: .ci/image-check assembles the final
# stage's files the same way and runs the service from them (docs/deploy.md,
# "Container image").

# The toolchain of go.mod (go 1.26.x); pin by digest in a registry you
# control if you need byte-for-byte rebuilds.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
# No .git in the build context (.dockerignore): the version comes in as
# build arguments; scripts/build stamps them (-ldflags -X).
ARG VERSION=0.0.0-dev
ARG COMMIT=unknown
ARG DATE=unknown
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    VERSION="$VERSION" COMMIT="$COMMIT" DATE="$DATE" scripts/build /out/promoengine \
 && /out/promoengine version
# The user (numeric, as Kubernetes' runAsNonRoot wants it) and its working
# directory, where the embedded SQLite file goes when no PostgreSQL is set.
RUN mkdir -p /out/etc /out/data \
 && echo 'promoengine:x:65532:65532:promoengine:/data:/sbin/nologin' > /out/etc/passwd \
 && chown 65532:65532 /out/data

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/etc/passwd /etc/passwd
COPY --from=build --chown=65532:65532 /out/data /data
COPY --from=build /out/promoengine /promoengine
USER 65532:65532
WORKDIR /data
VOLUME /data
ENV PROMO_ADDR=:8080
EXPOSE 8080
# /readyz through the binary itself (the image has no shell or curl):
# healthy while the database answers and the process is not draining.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/promoengine", "healthcheck"]
ENTRYPOINT ["/promoengine"]
CMD ["serve"]
