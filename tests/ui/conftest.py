"""UI tests run offscreen; Qt reads the platform when the application starts."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
