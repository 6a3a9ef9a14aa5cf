"""The admin, on Kibitz's own admin site (accounts/admin_site.py): INSTALLED_APPS names
this config in the place of ``django.contrib.admin``.  Kept apart from the site's class,
which imports models (this module is read before the apps are ready)."""

from __future__ import annotations

from django.contrib.admin.apps import AdminConfig


class KibitzAdminConfig(AdminConfig):
    default_site = "accounts.admin_site.KibitzAdminSite"
