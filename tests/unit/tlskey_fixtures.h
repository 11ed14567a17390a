/*
** tlskey_fixtures: keys made with OpenSSL 3 and ssh-keygen when the test
** was written (tests/unit/test_tlskey.c), with what those tools print
** for them: the PKCS#1/SEC1, PKCS#8 and PKIX PEM, the hex SHA-1 of the
** PKIX DER (upstream's id), the authorized_keys line, the MD5 and SHA-256
** fingerprints, and the OpenSSH private key file (ssh-keygen wraps its
** base64 at 70 columns, Go at 64: the test compares the decoded bytes)
** with its check integer.  Throwaway keys, used nowhere else.
*/
typedef struct KeyFixture {
  const char *name, *pem, *pkcs8, *pub, *id, *authk, *md5, *sha256, *ssh;
  unsigned long check;
} KeyFixture;

static const KeyFixture fixtures[] = {
  {"rsa",
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIICXQIBAAKBgQC4PLxpzX6fuLdm+9jToZF3bR2x9KNJHxXrj36qerX4MN325Y1r\n"
    "ygc9ZvFdr3NRKulQS+mYgP0ptmeYxtI6htomflVnLTuxtblPHZFoypWzkXR4HoUP\n"
    "+Q+CKYZ6WJhyniuJx5Tjrm5gmrQJDr3ToA+DIvcgZTnPy7yRADDCJR5MsQIDAQAB\n"
    "AoGBAIIAOWLe4c6KZL+CTklm5GJE2INNgDqEeM8y/coFtIlg0f75k4TPlbQ6A257\n"
    "8v7/LIrARiCaRAk+8HLZOFab+SmloCRnHbJoPB9qCzFWm42kCGRaSGCE8lIXelBt\n"
    "vByigOxkrpIgW1Mr846Hgi+zEcHi7lkbbRcrI+/keWRuy85RAkEA4WS9vHlOicrD\n"
    "7wr+f30zhtC1rHS9TTYuHWdhjeGaZfOCc3HFTgAbuC+byBG34YEfloK4YfbZPRXS\n"
    "P6UzfMqrowJBANFBTAWB1LZbwcaAxaWoRqXrkYnA0ASP1vMCM0DB/eSpw2fqv4Uu\n"
    "Rvhm6wifW7AFpeLyEejJvFdGjzrnDH9cK5sCQQCZTgw/xcLFtkTOsoun62DAsfTf\n"
    "+AdKHTAAj/CqsGh0L8zq+Nda1ngEL12mF2ca2tjBZuhCucPI6K6424TJvJBBAkAz\n"
    "PXoQHyqnPPDGWuILHpmuJ3EL+lr1wwMvnmpOgTJau/dNiv467ooSaaFEC0G4aKmm\n"
    "WQBpsHyeInkQQ2OcDEXhAkAgV1DVtWO57i0jnUqzklSa/juwoP+7/Q9y8OKz9xYt\n"
    "FK6fT4aBrzxGny0zT3gE1voAwP0aiWTt2TeVQ5hJLt9D\n"
    "-----END RSA PRIVATE KEY-----\n",
    "-----BEGIN PRIVATE KEY-----\n"
    "MIICdwIBADANBgkqhkiG9w0BAQEFAASCAmEwggJdAgEAAoGBALg8vGnNfp+4t2b7\n"
    "2NOhkXdtHbH0o0kfFeuPfqp6tfgw3fbljWvKBz1m8V2vc1Eq6VBL6ZiA/Sm2Z5jG\n"
    "0jqG2iZ+VWctO7G1uU8dkWjKlbORdHgehQ/5D4IphnpYmHKeK4nHlOOubmCatAkO\n"
    "vdOgD4Mi9yBlOc/LvJEAMMIlHkyxAgMBAAECgYEAggA5Yt7hzopkv4JOSWbkYkTY\n"
    "g02AOoR4zzL9ygW0iWDR/vmThM+VtDoDbnvy/v8sisBGIJpECT7wctk4Vpv5KaWg\n"
    "JGcdsmg8H2oLMVabjaQIZFpIYITyUhd6UG28HKKA7GSukiBbUyvzjoeCL7MRweLu\n"
    "WRttFysj7+R5ZG7LzlECQQDhZL28eU6JysPvCv5/fTOG0LWsdL1NNi4dZ2GN4Zpl\n"
    "84JzccVOABu4L5vIEbfhgR+Wgrhh9tk9FdI/pTN8yqujAkEA0UFMBYHUtlvBxoDF\n"
    "pahGpeuRicDQBI/W8wIzQMH95KnDZ+q/hS5G+GbrCJ9bsAWl4vIR6Mm8V0aPOucM\n"
    "f1wrmwJBAJlODD/FwsW2RM6yi6frYMCx9N/4B0odMACP8KqwaHQvzOr411rWeAQv\n"
    "XaYXZxra2MFm6EK5w8jorrjbhMm8kEECQDM9ehAfKqc88MZa4gsema4ncQv6WvXD\n"
    "Ay+eak6BMlq7902K/jruihJpoUQLQbhoqaZZAGmwfJ4ieRBDY5wMReECQCBXUNW1\n"
    "Y7nuLSOdSrOSVJr+O7Cg/7v9D3Lw4rP3Fi0Urp9PhoGvPEafLTNPeATW+gDA/RqJ\n"
    "ZO3ZN5VDmEku30M=\n"
    "-----END PRIVATE KEY-----\n",
    "-----BEGIN PUBLIC KEY-----\n"
    "MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC4PLxpzX6fuLdm+9jToZF3bR2x\n"
    "9KNJHxXrj36qerX4MN325Y1rygc9ZvFdr3NRKulQS+mYgP0ptmeYxtI6htomflVn\n"
    "LTuxtblPHZFoypWzkXR4HoUP+Q+CKYZ6WJhyniuJx5Tjrm5gmrQJDr3ToA+DIvcg\n"
    "ZTnPy7yRADDCJR5MsQIDAQAB\n"
    "-----END PUBLIC KEY-----\n",
    "90ac15a2485abcb15bfd4afef21c20dce8c6d033",
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQC4PLxpzX6fuLdm+9jToZF3bR2x9KNJHxXrj36qerX4MN325Y1rygc9ZvFdr3NRKulQS+mYgP0ptmeYxtI6htomflVnLTuxtblPHZFoypWzkXR4HoUP+Q+CKYZ6WJhyniuJx5Tjrm5gmrQJDr3ToA+DIvcgZTnPy7yRADDCJR5MsQ==\n",
    "ee:eb:34:2f:57:8b:62:19:9f:b2:1b:b3:b4:2f:a1:a9",
    "SHA256:DcYEAfWBeBoi0lvEZMtlB5e0LDuwozH8OyiT8+4wtQs",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAlwAAAAdzc2gtcn\n"
    "NhAAAAAwEAAQAAAIEAuDy8ac1+n7i3ZvvY06GRd20dsfSjSR8V649+qnq1+DDd9uWNa8oH\n"
    "PWbxXa9zUSrpUEvpmID9KbZnmMbSOobaJn5VZy07sbW5Tx2RaMqVs5F0eB6FD/kPgimGel\n"
    "iYcp4riceU465uYJq0CQ6906APgyL3IGU5z8u8kQAwwiUeTLEAAAH4uCQGErgkBhIAAAAH\n"
    "c3NoLXJzYQAAAIEAuDy8ac1+n7i3ZvvY06GRd20dsfSjSR8V649+qnq1+DDd9uWNa8oHPW\n"
    "bxXa9zUSrpUEvpmID9KbZnmMbSOobaJn5VZy07sbW5Tx2RaMqVs5F0eB6FD/kPgimGeliY\n"
    "cp4riceU465uYJq0CQ6906APgyL3IGU5z8u8kQAwwiUeTLEAAAADAQABAAAAgQCCADli3u\n"
    "HOimS/gk5JZuRiRNiDTYA6hHjPMv3KBbSJYNH++ZOEz5W0OgNue/L+/yyKwEYgmkQJPvBy\n"
    "2ThWm/kppaAkZx2yaDwfagsxVpuNpAhkWkhghPJSF3pQbbwcooDsZK6SIFtTK/OOh4Ivsx\n"
    "HB4u5ZG20XKyPv5HlkbsvOUQAAAEAgV1DVtWO57i0jnUqzklSa/juwoP+7/Q9y8OKz9xYt\n"
    "FK6fT4aBrzxGny0zT3gE1voAwP0aiWTt2TeVQ5hJLt9DAAAAQQDhZL28eU6JysPvCv5/fT\n"
    "OG0LWsdL1NNi4dZ2GN4Zpl84JzccVOABu4L5vIEbfhgR+Wgrhh9tk9FdI/pTN8yqujAAAA\n"
    "QQDRQUwFgdS2W8HGgMWlqEal65GJwNAEj9bzAjNAwf3kqcNn6r+FLkb4ZusIn1uwBaXi8h\n"
    "HoybxXRo865wx/XCubAAAAAAEC\n"
    "-----END OPENSSH PRIVATE KEY-----\n",
   3089368594UL},
  {"p224",
    "-----BEGIN EC PRIVATE KEY-----\n"
    "MGgCAQEEHFAh6ase7bpxl9+C9XayiZHFcko6zFrIo/kXLYKgBwYFK4EEACGhPAM6\n"
    "AARUXnqZqiXD9UhnJXkJ9txBCUN7x9NEcKgSRPAX71aDDL+yXfkPop8C4m9yb/4V\n"
    "TAjRY33mLa+ysw==\n"
    "-----END EC PRIVATE KEY-----\n",
    "-----BEGIN PRIVATE KEY-----\n"
    "MHgCAQAwEAYHKoZIzj0CAQYFK4EEACEEYTBfAgEBBBxQIemrHu26cZffgvV2somR\n"
    "xXJKOsxayKP5Fy2CoTwDOgAEVF56maolw/VIZyV5CfbcQQlDe8fTRHCoEkTwF+9W\n"
    "gwy/sl35D6KfAuJvcm/+FUwI0WN95i2vsrM=\n"
    "-----END PRIVATE KEY-----\n",
    "-----BEGIN PUBLIC KEY-----\n"
    "ME4wEAYHKoZIzj0CAQYFK4EEACEDOgAEVF56maolw/VIZyV5CfbcQQlDe8fTRHCo\n"
    "EkTwF+9Wgwy/sl35D6KfAuJvcm/+FUwI0WN95i2vsrM=\n"
    "-----END PUBLIC KEY-----\n",
    "34d04cc33fb68109076ddbd856892379e1b13d92",
    "",
    "",
    "",
    "",
   0UL},
  {"p256",
    "-----BEGIN EC PRIVATE KEY-----\n"
    "MHcCAQEEIMGF1+TSGcuiSvtS3egCKkaMBqBhLL9V1huJO7FvrJq0oAoGCCqGSM49\n"
    "AwEHoUQDQgAEEL4488DTJrvBJrReG7d3EMS0ehw/pZcKV7Mhms8xJwhAcQtQhyA5\n"
    "VJ35W2iQNtbH02CofWXn5Os0k63aj0wQKA==\n"
    "-----END EC PRIVATE KEY-----\n",
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgwYXX5NIZy6JK+1Ld\n"
    "6AIqRowGoGEsv1XWG4k7sW+smrShRANCAAQQvjjzwNMmu8EmtF4bt3cQxLR6HD+l\n"
    "lwpXsyGazzEnCEBxC1CHIDlUnflbaJA21sfTYKh9Zefk6zSTrdqPTBAo\n"
    "-----END PRIVATE KEY-----\n",
    "-----BEGIN PUBLIC KEY-----\n"
    "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEL4488DTJrvBJrReG7d3EMS0ehw/\n"
    "pZcKV7Mhms8xJwhAcQtQhyA5VJ35W2iQNtbH02CofWXn5Os0k63aj0wQKA==\n"
    "-----END PUBLIC KEY-----\n",
    "d8804ed4b856f6ade0739f398a7e9ff243d28709",
    "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBBC+OPPA0ya7wSa0Xhu3dxDEtHocP6WXClezIZrPMScIQHELUIcgOVSd+VtokDbWx9NgqH1l5+TrNJOt2o9MECg=\n",
    "cb:a7:dd:79:b6:1d:82:e5:01:0b:af:81:4e:4d:14:f4",
    "SHA256:Wo/PcjKGIKBp2RCQFFptSuYuGW0EjA3mnpFgJ5mc4YE",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAaAAAABNlY2RzYS\n"
    "1zaGEyLW5pc3RwMjU2AAAACG5pc3RwMjU2AAAAQQQQvjjzwNMmu8EmtF4bt3cQxLR6HD+l\n"
    "lwpXsyGazzEnCEBxC1CHIDlUnflbaJA21sfTYKh9Zefk6zSTrdqPTBAoAAAAoOtxhVDrcY\n"
    "VQAAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBBC+OPPA0ya7wSa0\n"
    "Xhu3dxDEtHocP6WXClezIZrPMScIQHELUIcgOVSd+VtokDbWx9NgqH1l5+TrNJOt2o9MEC\n"
    "gAAAAhAMGF1+TSGcuiSvtS3egCKkaMBqBhLL9V1huJO7FvrJq0AAAAAAECAwQFBgc=\n"
    "-----END OPENSSH PRIVATE KEY-----\n",
   3950085456UL},
  {"p384",
    "-----BEGIN EC PRIVATE KEY-----\n"
    "MIGkAgEBBDCTo1y7jd7LI98r3U2q7kjovoBOf7iw+M08naIU9KhBHW39FSth7uiI\n"
    "sF4QUAOBj/+gBwYFK4EEACKhZANiAAT6WWZFRYEtReqYXeUlPN0UAEYIqtDi15/8\n"
    "xQ+ua9VsjdRv3uKbU/5/Yr26zr0YQ0WXyUlHPFniq6N8YELZD3pApNo3dfT74T6E\n"
    "i728IeLIBLoxK6oKWAFsGiZ7YYsnTdY=\n"
    "-----END EC PRIVATE KEY-----\n",
    "-----BEGIN PRIVATE KEY-----\n"
    "MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCTo1y7jd7LI98r3U2q\n"
    "7kjovoBOf7iw+M08naIU9KhBHW39FSth7uiIsF4QUAOBj/+hZANiAAT6WWZFRYEt\n"
    "ReqYXeUlPN0UAEYIqtDi15/8xQ+ua9VsjdRv3uKbU/5/Yr26zr0YQ0WXyUlHPFni\n"
    "q6N8YELZD3pApNo3dfT74T6Ei728IeLIBLoxK6oKWAFsGiZ7YYsnTdY=\n"
    "-----END PRIVATE KEY-----\n",
    "-----BEGIN PUBLIC KEY-----\n"
    "MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAE+llmRUWBLUXqmF3lJTzdFABGCKrQ4tef\n"
    "/MUPrmvVbI3Ub97im1P+f2K9us69GENFl8lJRzxZ4qujfGBC2Q96QKTaN3X0++E+\n"
    "hIu9vCHiyAS6MSuqClgBbBome2GLJ03W\n"
    "-----END PUBLIC KEY-----\n",
    "132583a17f6cf4eaa32d6d9b4a9226254bdc3169",
    "ecdsa-sha2-nistp384 AAAAE2VjZHNhLXNoYTItbmlzdHAzODQAAAAIbmlzdHAzODQAAABhBPpZZkVFgS1F6phd5SU83RQARgiq0OLXn/zFD65r1WyN1G/e4ptT/n9ivbrOvRhDRZfJSUc8WeKro3xgQtkPekCk2jd19PvhPoSLvbwh4sgEujErqgpYAWwaJnthiydN1g==\n",
    "00:e1:6e:0b:7b:06:a2:0c:b4:a3:99:f4:62:14:82:d6",
    "SHA256:KSJ21qFmN1ujumPZiPZ5TIVRqRsJfzcjlIQYKHB0AwI",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAiAAAABNlY2RzYS\n"
    "1zaGEyLW5pc3RwMzg0AAAACG5pc3RwMzg0AAAAYQT6WWZFRYEtReqYXeUlPN0UAEYIqtDi\n"
    "15/8xQ+ua9VsjdRv3uKbU/5/Yr26zr0YQ0WXyUlHPFniq6N8YELZD3pApNo3dfT74T6Ei7\n"
    "28IeLIBLoxK6oKWAFsGiZ7YYsnTdYAAADQJjuNcSY7jXEAAAATZWNkc2Etc2hhMi1uaXN0\n"
    "cDM4NAAAAAhuaXN0cDM4NAAAAGEE+llmRUWBLUXqmF3lJTzdFABGCKrQ4tef/MUPrmvVbI\n"
    "3Ub97im1P+f2K9us69GENFl8lJRzxZ4qujfGBC2Q96QKTaN3X0++E+hIu9vCHiyAS6MSuq\n"
    "ClgBbBome2GLJ03WAAAAMQCTo1y7jd7LI98r3U2q7kjovoBOf7iw+M08naIU9KhBHW39FS\n"
    "th7uiIsF4QUAOBj/8AAAAAAQIDBAUGBw==\n"
    "-----END OPENSSH PRIVATE KEY-----\n",
   641437041UL},
  {"p521",
    "-----BEGIN EC PRIVATE KEY-----\n"
    "MIHcAgEBBEIBoD4IaoxxOc/d+peOScygygw4x7/8F+u4pdOGOGkcLY3qsQSW8ron\n"
    "rZx/RC6YIsEKnMNFMK0rmNqGIjA84f6HKNqgBwYFK4EEACOhgYkDgYYABACwSvtF\n"
    "icl4+3pgRLCskW9YDXuTiQd+umoZW6labmiRug8RwhxnLfNXzhWCvYs05dNh7Oia\n"
    "1F2kzc//9YvD3P862QC699G14ZEI4KTJBxgMpK9Wb38XTW+I2ZFnnkQpnwwK4oO+\n"
    "ujIwCbmgtMALwmprz1ewZSDfcukXY1hpP5sd1oYzHQ==\n"
    "-----END EC PRIVATE KEY-----\n",
    "-----BEGIN PRIVATE KEY-----\n"
    "MIHuAgEAMBAGByqGSM49AgEGBSuBBAAjBIHWMIHTAgEBBEIBoD4IaoxxOc/d+peO\n"
    "Scygygw4x7/8F+u4pdOGOGkcLY3qsQSW8ronrZx/RC6YIsEKnMNFMK0rmNqGIjA8\n"
    "4f6HKNqhgYkDgYYABACwSvtFicl4+3pgRLCskW9YDXuTiQd+umoZW6labmiRug8R\n"
    "whxnLfNXzhWCvYs05dNh7Oia1F2kzc//9YvD3P862QC699G14ZEI4KTJBxgMpK9W\n"
    "b38XTW+I2ZFnnkQpnwwK4oO+ujIwCbmgtMALwmprz1ewZSDfcukXY1hpP5sd1oYz\n"
    "HQ==\n"
    "-----END PRIVATE KEY-----\n",
    "-----BEGIN PUBLIC KEY-----\n"
    "MIGbMBAGByqGSM49AgEGBSuBBAAjA4GGAAQAsEr7RYnJePt6YESwrJFvWA17k4kH\n"
    "frpqGVupWm5okboPEcIcZy3zV84Vgr2LNOXTYezomtRdpM3P//WLw9z/OtkAuvfR\n"
    "teGRCOCkyQcYDKSvVm9/F01viNmRZ55EKZ8MCuKDvroyMAm5oLTAC8Jqa89XsGUg\n"
    "33LpF2NYaT+bHdaGMx0=\n"
    "-----END PUBLIC KEY-----\n",
    "2bda3ab56509527feb59f2f555cc02c1842b7969",
    "ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBACwSvtFicl4+3pgRLCskW9YDXuTiQd+umoZW6labmiRug8RwhxnLfNXzhWCvYs05dNh7Oia1F2kzc//9YvD3P862QC699G14ZEI4KTJBxgMpK9Wb38XTW+I2ZFnnkQpnwwK4oO+ujIwCbmgtMALwmprz1ewZSDfcukXY1hpP5sd1oYzHQ==\n",
    "63:b8:b0:71:e6:33:8f:63:a4:bb:3f:3f:c4:fc:dc:0e",
    "SHA256:i/EYqopfIBhHvvWTsfP81n8e4u5vbxzUxNbnghDKj1Y",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAArAAAABNlY2RzYS\n"
    "1zaGEyLW5pc3RwNTIxAAAACG5pc3RwNTIxAAAAhQQAsEr7RYnJePt6YESwrJFvWA17k4kH\n"
    "frpqGVupWm5okboPEcIcZy3zV84Vgr2LNOXTYezomtRdpM3P//WLw9z/OtkAuvfRteGRCO\n"
    "CkyQcYDKSvVm9/F01viNmRZ55EKZ8MCuKDvroyMAm5oLTAC8Jqa89XsGUg33LpF2NYaT+b\n"
    "HdaGMx0AAAEAImkS4iJpEuIAAAATZWNkc2Etc2hhMi1uaXN0cDUyMQAAAAhuaXN0cDUyMQ\n"
    "AAAIUEALBK+0WJyXj7emBEsKyRb1gNe5OJB366ahlbqVpuaJG6DxHCHGct81fOFYK9izTl\n"
    "02Hs6JrUXaTNz//1i8Pc/zrZALr30bXhkQjgpMkHGAykr1ZvfxdNb4jZkWeeRCmfDArig7\n"
    "66MjAJuaC0wAvCamvPV7BlIN9y6RdjWGk/mx3WhjMdAAAAQgGgPghqjHE5z936l45JzKDK\n"
    "DDjHv/wX67il04Y4aRwtjeqxBJbyuietnH9ELpgiwQqcw0UwrSuY2oYiMDzh/oco2gAAAA\n"
    "ABAg==\n"
    "-----END OPENSSH PRIVATE KEY-----\n",
   577311458UL},
  {"ed",
    "-----BEGIN PRIVATE KEY-----\n"
    "MC4CAQAwBQYDK2VwBCIEILZv+ZC+E5krm8MR4TQv79n27kjUYkDtlDWYR0lSAeJT\n"
    "-----END PRIVATE KEY-----\n",
    "-----BEGIN PRIVATE KEY-----\n"
    "MC4CAQAwBQYDK2VwBCIEILZv+ZC+E5krm8MR4TQv79n27kjUYkDtlDWYR0lSAeJT\n"
    "-----END PRIVATE KEY-----\n",
    "-----BEGIN PUBLIC KEY-----\n"
    "MCowBQYDK2VwAyEAkgIop4d4YxY92XhNt3VGyTWxzrIhmzOW6GUNldiWNcw=\n"
    "-----END PUBLIC KEY-----\n",
    "4b1ea5df3d5fecdef81d93c400a7fdf0cfcc7cdc",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJICKKeHeGMWPdl4Tbd1Rsk1sc6yIZszluhlDZXYljXM\n",
    "08:44:ea:c0:92:67:a1:18:78:95:a7:0e:16:2c:fe:32",
    "SHA256:GAUIzWmO6F5G9ySBy4Bzn/PHSCazXJhN2Y03Rvauw20",
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACCSAiinh3hjFj3ZeE23dUbJNbHOsiGbM5boZQ2V2JY1zAAAAIh0+jL+dPoy\n"
    "/gAAAAtzc2gtZWQyNTUxOQAAACCSAiinh3hjFj3ZeE23dUbJNbHOsiGbM5boZQ2V2JY1zA\n"
    "AAAEC2b/mQvhOZK5vDEeE0L+/Z9u5I1GJA7ZQ1mEdJUgHiU5ICKKeHeGMWPdl4Tbd1Rsk1\n"
    "sc6yIZszluhlDZXYljXMAAAAAAECAwQF\n"
    "-----END OPENSSH PRIVATE KEY-----\n",
   1962554110UL},
};
