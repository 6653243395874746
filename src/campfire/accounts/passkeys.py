"""Passkeys (WebAuthn) through the `webauthn` library: the options a page hands to
`navigator.credentials`, and the checks of what the authenticator answers.

The relying party id is the host name the page was served from (a passkey made on
`play.example` works there only); the expected origin is that page's origin. Passkeys are
discoverable (resident), so signing in needs no name: the authenticator offers the accounts
it holds for this site, and its answer names the credential, which names the account.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from webauthn import (
    base64url_to_bytes,
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from campfire.i18n import N_
from campfire.kernel.errors import Refusal

RP_NAME = "Campfire"
#: milliseconds the browser gives the person; the server keeps a challenge as long
TIMEOUT_MS = 120_000


class PasskeyRefused(ValueError):
    """The authenticator's answer did not check out, with the reason a person reads."""


@dataclass(frozen=True)
class NewPasskey:
    credential_id: str  # base64url
    public_key: str  # base64url of the COSE key
    sign_count: int


def registration_options(
    rp_id: str, user_id: bytes, name: str, existing: list[str]
) -> tuple[dict[str, Any], bytes]:
    """What `navigator.credentials.create` needs (as JSON) and the challenge to keep."""
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_name=name,
        user_id=user_id,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in existing
        ],
    )
    return json.loads(options_to_json(options)), options.challenge


def verify_registration(
    credential: dict[str, Any], challenge: bytes, rp_id: str, origin: str
) -> NewPasskey:
    try:
        found = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise PasskeyRefused(
            Refusal(N_("the passkey could not be checked: {error}"), error=str(error))
        ) from None
    return NewPasskey(
        bytes_to_base64url(found.credential_id),
        bytes_to_base64url(found.credential_public_key),
        found.sign_count,
    )


def authentication_options(rp_id: str) -> tuple[dict[str, Any], bytes]:
    """What `navigator.credentials.get` needs (any passkey of this site) and the challenge."""
    options = generate_authentication_options(
        rp_id=rp_id,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return json.loads(options_to_json(options)), options.challenge


def credential_id_of(credential: dict[str, Any]) -> str | None:
    """The credential id an authenticator's answer names (None when it names none)."""
    raw = credential.get("rawId", credential.get("id"))
    if not isinstance(raw, str) or not 1 <= len(raw) <= 1400:
        return None
    try:
        return bytes_to_base64url(base64url_to_bytes(raw))
    except (ValueError, TypeError):
        return None


def verify_authentication(
    credential: dict[str, Any],
    challenge: bytes,
    rp_id: str,
    origin: str,
    public_key: str,
    sign_count: int,
) -> int:
    """Check a sign-in answer; the authenticator's new sign count."""
    try:
        found = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(public_key),
            credential_current_sign_count=sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as error:
        raise PasskeyRefused(
            Refusal(N_("the passkey could not be checked: {error}"), error=str(error))
        ) from None
    return int(found.new_sign_count)
