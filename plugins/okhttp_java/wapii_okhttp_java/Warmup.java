import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

public class WapiiWarmup {
    public static void main(String[] args) throws Exception {
        OkHttpClient client = new OkHttpClient();
        try (Response response = client.newCall(new Request.Builder()
                .url("https://warmup.example.com/a/b?q=1&r=x%20y")
                .header("Authorization", "Bearer <token>")
                .header("Content-Type", "application/json")
                .method("POST", RequestBody.create(MediaType.parse("application/json"), "{\"a\": 1}".getBytes("UTF-8")))
                .build()).execute()) {
            response.body().string();
        }
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
