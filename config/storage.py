"""Static files for production: collectstatic writes hashed names (``table.3f2a….js``)
that never change, so nginx can let browsers cache them for a year."""

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage


class StaticStorage(ManifestStaticFilesStorage):
    # Rewrite ES module imports too (`import … from "./telemetry.js"`), so a page and the
    # modules it imports load the same hashed files: one module instance, one version.
    support_js_module_import_aggregation = True
