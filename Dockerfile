FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
# Static files are collected into the image, so every Daphne replica serves the same hashed files (whitenoise).
# collectstatic signs nothing, but the settings refuse to load without a SECRET_KEY: it gets a throwaway one, which
# lives only in this step's environment, so the image holds no key (the running containers get theirs from .env).
RUN SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" STATIC_MANIFEST=1 \
    python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
