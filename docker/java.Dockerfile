# syntax=docker/dockerfile:1
# The two Java services, built from this repository: Maven and a JDK in the build stage only, a JRE at run time,
# so a machine with Docker needs no JDK or Maven. compose.yaml builds the targets `service` and `writer`:
#   docker build -f docker/java.Dockerfile --target service -t seckill-service:local .
ARG MAVEN_IMAGE=maven:3.9.12-eclipse-temurin-25
ARG JRE_IMAGE=eclipse-temurin:25.0.1_8-jre

FROM ${MAVEN_IMAGE} AS build
WORKDIR /src
# The reactor reads every module's pom, so the whole context goes in (.dockerignore keeps build output, run state
# and secrets out); only the two services and the modules they need are built. The local repository is a build
# cache (BuildKit), never part of an image.
COPY . .
RUN --mount=type=cache,target=/root/.m2 mvn -B -q -DskipTests -pl helidon-app,kafka-consumer -am package

# What both run on: the JRE image (Ubuntu; bash, no curl or wget), the health probe, and a user without privileges.
FROM ${JRE_IMAGE} AS jre
COPY --chmod=755 docker/http-ok.sh /usr/local/bin/seckill-http-ok
RUN useradd --system --no-create-home --shell /usr/sbin/nologin seckill
WORKDIR /app
USER seckill

# The service: target/helidon-app.jar finds target/libs/*.jar through its manifest's Class-Path. The flags silence
# Netty's and jna's warnings on Java 25; the heap comes from JDK_JAVA_OPTIONS (compose sets it).
FROM jre AS service
COPY --from=build /src/helidon-app/target/libs /app/libs
COPY --from=build /src/helidon-app/target/helidon-app.jar /app/
EXPOSE 8081 8083
ENTRYPOINT ["java", "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED", "-jar", "/app/helidon-app.jar"]

# The batch writer, laid out the same way.
FROM jre AS writer
COPY --from=build /src/kafka-consumer/target/libs /app/libs
COPY --from=build /src/kafka-consumer/target/kafka-consumer.jar /app/
EXPOSE 8082
ENTRYPOINT ["java", "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED", "-jar", "/app/kafka-consumer.jar"]
