"""Static files in production: hashed names, compressed copies, and ES modules that import each other by their
hashed names too (the expert room is a tree of modules, static/js/expert_room/), so a browser that caches one file
never runs it beside another file of an older deploy."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
