"""``/docs``: Swagger UI for the API, served by this server alone.

FastAPI's own docs page loads Swagger UI from a CDN, so it is blank on a machine without
internet access and would need the CDN allowed by the pages' Content-Security-Policy. Here
the page, its start-up script and Swagger UI's files (from the ``fastapi-offline`` package,
which ships a current Swagger UI 5 bundle; ``swagger-ui-bundle`` ships Swagger UI 4, which
cannot read the OpenAPI 3.1 that FastAPI writes) all come from this server, and the start-up
script is a file rather than an inline script, so the page keeps the site's policy of
scripts from the server's own files only. ReDoc is not offered (it too came from a CDN).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/docs/assets"
OPENAPI_URL = "/openapi.json"

PAGE = f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Karnak API</title>
  <link rel="stylesheet" href="{ASSETS_URL}/swagger-ui.css">
  <link rel="icon" href="{ASSETS_URL}/favicon.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="{ASSETS_URL}/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>
"""

# validatorUrl: null, or Swagger UI asks an outside validator for a badge image.
START = f"""window.ui = SwaggerUIBundle({{
  url: "{OPENAPI_URL}",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
}});
"""

router = APIRouter(include_in_schema=False)


@router.get("/docs")
async def docs_page() -> HTMLResponse:
    return HTMLResponse(PAGE)


@router.get("/docs/start.js")
async def docs_start() -> Response:
    return Response(START, media_type="text/javascript")


def swagger_assets() -> StaticFiles:
    """Swagger UI's JavaScript and CSS, from the installed ``fastapi-offline`` package."""
    return StaticFiles(directory=Path(str(files("fastapi_offline") / "static")))
