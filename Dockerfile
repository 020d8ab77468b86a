FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md requirements.lock ./
COPY core core
COPY gym gym
COPY rag rag
COPY tools tools
COPY agent agent
COPY offline_model offline_model
COPY api api
COPY pipeline pipeline
COPY evals evals
COPY migrations migrations
COPY locales locales
RUN pip install --no-cache-dir -c requirements.lock -e .
ENV APP_ENV=production
EXPOSE 8000
CMD ["sh", "-c", "spotter migrate && spotter serve --host 0.0.0.0 --port 8000"]
