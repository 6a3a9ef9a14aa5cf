from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("tokens/", views.tokens, name="tokens"),
    path("delete/", views.account_delete_view, name="delete"),
    path("tokens/<int:pk>/revoke/", views.token_revoke, name="token-revoke"),
]
