# syntax=docker/dockerfile:1
# SchedLab image: build with the Maven wrapper on a JDK 17, run the layered jar on a JRE 17.

# ---- build stage -----------------------------------------------------------------------
FROM eclipse-temurin:17-jdk AS build
WORKDIR /build
# Dependency layer: only the wrapper and pom, so it is rebuilt only when the pom changes.
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
RUN chmod +x mvnw && ./mvnw -B -q dependency:go-offline
# Application layer.
COPY src/ src/
RUN ./mvnw -B -DskipTests package \
 && cp target/schedlab-*.jar application.jar \
 && java -Djarmode=tools -jar application.jar extract --layers --launcher --destination extracted

# ---- run stage -------------------------------------------------------------------------
FROM eclipse-temurin:17-jre
# curl only for HEALTHCHECK: the JRE image has neither curl nor wget, and a Java-based probe
# would start a whole JVM (~0.5 s CPU, ~50 MB) every interval on a small host.
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system --gid 10001 schedlab \
 && useradd --system --uid 10001 --gid schedlab --home-dir /app --shell /usr/sbin/nologin schedlab
WORKDIR /app
# Spring Boot layers, least to most often changed, so image layers are reused across builds.
COPY --from=build /build/extracted/dependencies/ ./
COPY --from=build /build/extracted/spring-boot-loader/ ./
COPY --from=build /build/extracted/snapshot-dependencies/ ./
COPY --from=build /build/extracted/application/ ./
# schedlab.data-dir (./data): H2 file (when no SCHEDLAB_DB_URL is set) and trace CSV files.
RUN mkdir -p /app/data && chown schedlab:schedlab /app/data
VOLUME /app/data
USER 10001:10001
ENV SCHEDLAB_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=90s --retries=3 \
  CMD curl -fsS --max-time 2 "http://127.0.0.1:${SCHEDLAB_PORT}/actuator/health/liveness" || exit 1
# ThreadPriorityPolicy=1: the simulation workers lower their Java priority, and Linux honours it
# (nice 4) only with this flag, so the API threads are not queued behind a busy worker pool.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:ThreadPriorityPolicy=1", "org.springframework.boot.loader.launch.JarLauncher"]
